"""Tools around the language, apart from what they serve: the keyword tables (lexicon), highlighters
(highlight), the formatter (fmt), the language server (lsp), the hero scaffold (scaffold), what `info`
and `explain` print (explain), the generated docs (docs) and the fuzzer's inputs and oracle (fuzz)."""
