"""The real-world corpus: spreadsheets other open-source projects publish with their source
(see NOTICE), each run through forms infer -> forms add -> submit (see run.py)."""
