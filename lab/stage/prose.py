"""Small pieces of English that several parts of the stage and the lessons' tests put into their
sentences: a count with its noun, and a list joined as people write it."""


def plural(n, word, many=None):
    """"1 model call", "3 model calls", "2 entries": `many` when the plural is irregular."""
    if n == 1:
        return f"{n} {word}"
    if many is None:
        many = word[:-1] + "ies" if word.endswith("y") and word[-2:-1] not in "aeiou" else word + "s"
    return f"{n} {many}"


def joined(words, last="and"):
    """"a", "a and b", "a, b and c" (or "a, b or c" with last="or")."""
    words = [str(w) for w in words]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + f" {last} " + words[-1]
