#!/usr/bin/env python3
"""frontier `perm megaminx --solver chain` beside twips-cli on the same Megaminx positions.

Usage: megaminx_twips.py COUNT SEED FRONTIER TWIPS
       megaminx_twips.py COUNT SEED FRONTIER FRONTIER2 --frontier-only

Positions: seeded `random.Random(SEED)`, 120 random turns in the preset's names (no face twice
in a row). twips gets the same position through a face map found here: both puzzles' face
adjacency graphs (faces that move a common edge), the isomorphism that keeps U, F and R, with
every power inverted (cubing.js turns the other way round); each twips answer is mapped back
and replayed on the preset's permutations, as is each frontier answer, so a wrong map shows.
One process a position each, the two programs alternating; CPU is user + sys from
/usr/bin/time. The tables must already be in FRONTIER_CACHE_DIR (a warm cache).
With --frontier-only, two frontier binaries are compared instead (alternating first)."""
import glob
import json
import random
import re
import subprocess
import sys

ROOT = __file__.rsplit("/benches/", 1)[0]
PRESET = f"{ROOT}/crates/perm/presets/megaminx.perm"
KPUZZLE = glob.glob("/root/.cargo/registry/src/*/twips-*/scramble/puzzles/definitions/"
                    "megaminx/megaminx.kpuzzle.json")


def preset_generators():
    gens = {}
    for line in open(PRESET):
        line = line.split("#")[0].strip()
        if ":" not in line or "(" not in line:
            continue
        name, cycles = line.split(":", 1)
        perm = list(range(200))
        for cycle in re.findall(r"\(([^)]*)\)", cycles):
            points = [int(x) for x in cycle.split(",")]
            for i, a in enumerate(points):
                perm[a] = points[(i + 1) % len(points)]
        gens[name.strip()] = perm
    return gens


GENS = preset_generators()
OURS = list(GENS)


def face_map():
    """Preset face -> cubing.js face, by adjacency, keeping U, F and R."""
    kpuzzle = json.load(open(KPUZZLE[0]))
    theirs = ["U", "F", "R", "BR", "BL", "L", "FL", "FR", "DL", "DR", "B", "D"]

    def edges(move):
        perm = kpuzzle["moves"][move]["EDGES"]["permutation"]
        return {i for i, x in enumerate(perm) if x != i}

    adj_theirs = {a: {b for b in theirs if b != a and edges(a) & edges(b)} for a in theirs}
    support = {f: {i for i, x in enumerate(GENS[f]) if x != i} for f in OURS}
    # Adjacent faces share an edge (2 points) and two corners: 4 or more points.
    adj_ours = {a: {b for b in OURS if b != a and len(support[a] & support[b]) >= 4}
                for a in OURS}

    def extend(m):
        if len(m) == len(OURS):
            return dict(m)
        a = next(f for f in OURS if f not in m)
        for b in theirs:
            if b not in m.values() and all((x in adj_ours[a]) == (m[x] in adj_theirs[b])
                                           for x in m):
                m[a] = b
                found = extend(m)
                if found:
                    return found
                del m[a]
        return None

    return extend({"U": "U", "F": "F", "R": "R"})


def name(face, k):
    return face + ["", "", "2", "2'", "'"][k]


def parse(text):
    out = []
    for token in text.split():
        m = re.fullmatch(r"([A-Za-z]+)(\d*)('?)", token)
        k = int(m.group(2) or 1)
        out.append((m.group(1), (-k if m.group(3) else k) % 5))
    return out


def solves(moves):
    state = list(range(200))
    for face, k in moves:
        for _ in range(k):
            new = state[:]
            for p, q in enumerate(GENS[face]):
                new[q] = state[p]
            state = new
    return state == list(range(200))


def merged(moves):
    out = []
    for face, k in moves:
        if out and out[-1][0] == face:
            k = (out[-1][1] + k) % 5
            out.pop()
        if k:
            out.append((face, k))
    return out


def timed(cmd):
    r = subprocess.run(["/usr/bin/time", "-f", "TIME %U %S %M"] + cmd,
                       capture_output=True, text=True)
    user, system, kb = [l for l in r.stderr.splitlines() if l.startswith("TIME")][-1].split()[1:]
    return r.stdout, float(user) + float(system), int(kb) // 1024


def frontier(binary, scramble):
    text = " ".join(name(f, k) for f, k in scramble)
    out, cpu, mb = timed([binary, "perm", "megaminx", text, "--solver", "chain", "--json"])
    answer = parse(" ".join(json.loads(out)["moves"]))
    return len(merged(answer)), cpu, mb, solves(scramble + answer)


def twips(binary, scramble, to_theirs):
    back = {v: k for k, v in to_theirs.items()}
    text = " ".join(name(to_theirs[f], (-k) % 5) for f, k in scramble)
    out, cpu, mb = timed([binary, "solve-known-puzzle", "megaminx", text,
                          "--print-link", "false"])
    answer = [(back[f], (-k) % 5) for f, k in parse(out.strip().splitlines()[-1])]
    return len(merged(answer)), cpu, mb, solves(scramble + answer)


def main():
    count, seed, first, second = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
    only = "--frontier-only" in sys.argv
    to_theirs = None if only else face_map()
    rng = random.Random(seed)
    for i in range(count):
        scramble, last = [], None
        for _ in range(120):
            face = rng.choice([f for f in OURS if f != last])
            last = face
            scramble.append((face, rng.choice([1, 2, 3, 4])))
        sides = [("A", first), ("B", second)] if only else [("frontier", first), ("twips", second)]
        if only and i % 2:
            sides.reverse()
        for label, binary in sides:
            if label == "twips":
                length, cpu, mb, ok = twips(binary, scramble, to_theirs)
            else:
                length, cpu, mb, ok = frontier(binary, scramble)
            print(f"{i} {label}: {length} moves, {cpu:.2f} s CPU, {mb} MB, replayed {ok}",
                  flush=True)


if __name__ == "__main__":
    main()
