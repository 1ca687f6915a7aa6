"""Export: a form's rows as a polars DataFrame, or streamed to a Parquet, CSV or Excel file."""
