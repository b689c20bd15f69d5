"""Reading the reply: the edit protocol a model writes (docs/edit-protocol.md) turned into blocks.

stream.py is the parser (a state machine over the reply's lines, fed in chunks as they stream);
blocks.py the data it yields; open_block.py what the lines inside a block mean; markers.py the
marker lines and the verbs models use for them; fences.py fences and the wrappers models put
around a page; think.py reasoning sections; foreign.py other tools' edit formats; paths.py how a
path is written; path_rules.py what a vault path may be (GuardError, used by every stage);
page_paths.py which existing page a path that names none means.

Nothing here writes, and nothing imports build/ or apply/.
"""
