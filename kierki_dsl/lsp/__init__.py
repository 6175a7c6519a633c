"""``kierki lsp``: a language server for ruleset files (pygls), for any editor that speaks LSP."""
