"""What comes in: a workbook checked, stored and given a job (submit), or only checked
(check)."""
