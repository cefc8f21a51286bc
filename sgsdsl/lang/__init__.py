"""The language: rules text to a generated Python module.

grammar.lark → parser (syntax tree of `ast` nodes, cached by parsecache) → resolve (names, packages,
`rules of`) → typecheck (every body typed against `surface`, the built-in types, attributes and
primitives) → codegen (templates/module.py.j2: event classes, one function per rule, trigger tables) →
compiler (the pipeline, to files in generated/ or in memory) → loader (compiled tables as an engine
Ruleset). diagnostics and limits serve every stage.
"""
