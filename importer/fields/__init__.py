"""A form's field: the field-type registry and coercion, per cell and per column."""
