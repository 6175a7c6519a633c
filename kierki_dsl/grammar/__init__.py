"""The expression grammar (expr.lark) and the parse tables lark generates from it."""
