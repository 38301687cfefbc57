"""Symbol.debug_str's listing (MXNet's format: outputs, then one block per operator with its
inputs and attributes), drawn from the symbol's JSON; a file of its own to keep symbol.py
under the 800-line budget."""
import json

__all__ = []


def _debug_str(sym):
    g = json.loads(sym.tojson())
    nodes = g["nodes"]
    lines = ["Symbol Outputs:"]
    for i, h in enumerate(g["heads"]):
        lines.append("\toutput[%d]=%s(%d)" % (i, nodes[h[0]]["name"], h[1]))
    for n in nodes:
        if n["op"] == "null":
            lines.append("Variable:%s" % n["name"])
            continue
        lines.append("--------------------")
        lines.append("Op:%s, Name=%s" % (n["op"], n["name"]))
        lines.append("Inputs:")
        for i, e in enumerate(n["inputs"]):
            src = nodes[e[0]]
            ver = " version=%d" % (e[2] if len(e) > 2 else 0) if src["op"] == "null" else ""
            lines.append("\targ[%d]=%s(%d)%s" % (i, src["name"], e[1], ver))
        attrs = n.get("attrs") or {}
        if attrs:
            lines.append("Attrs:")
            lines.extend("\t%s=%s" % kv for kv in sorted(attrs.items()))
    return "\n".join(lines) + "\n"
