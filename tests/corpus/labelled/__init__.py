"""The labelled corpus: real sheets from other projects' test and example data (see NOTICE),
each labelled as a person sees it (labels.json), and the tool compared with the labels
(`python -m tests.corpus.labelled`; `make corpus` runs it after the real-world corpus)."""
