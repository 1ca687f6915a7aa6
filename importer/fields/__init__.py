"""A form's field: its definition, the field-type registry and coercion, per cell and per
column. Nothing here imports the forms above it."""
