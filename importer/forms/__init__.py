"""A form: its definition (TOML), inference from a sheet, the choice of form for a header,
header matching and row validation."""
