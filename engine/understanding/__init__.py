"""Question understanding: what a question asks, about what, for whom and for when.

`read.read_question` turns the text into a `Reading` (the asked attribute, qualifiers, stated
facts, time, and which words each of those explains) without the knowledge base; the match
stage completes it into a `Frame` with the subject and the words nothing explained. A question
is answered only when its frame is fully accounted for.
"""
