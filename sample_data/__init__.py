"""Sample workbooks and form definitions (test fixtures) and their generator."""
