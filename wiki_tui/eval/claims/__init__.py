"""Claims checked in context: whether a text *asserts* a gold fact, asserts a different value
for it, or only mentions it (negated, contrasted, hedged, quoted, struck through, in a
footnote). Used by the eval's knowledge scores (docs/eval.md, "How a claim is read").

    prose.py     markdown -> sentences, with the spans that assert nothing masked
    values.py    years, counts, measures, money and names found in a sentence, normalised
    polarity.py  for a position in a sentence: asserted, negated, hedged or historical
    check.py     a Claim (what, which value) read against a text: asserted / contradicted
"""
