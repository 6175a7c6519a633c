"""Network adapters of the table: the SIK Kierki text protocol (server and client)."""
