#!/usr/bin/env python3
"""Writes NOTICE: Plumb's own notice, then every third-party jar the release archive ships in lib/,
each with its Maven coordinates and the licence its POM declares (or its parent POM's, as Maven
inherits it).

    deploy/archive/notice.py            rewrites NOTICE at the top of the tree
    deploy/archive/notice.py --check    exits 1, naming the jars, when NOTICE does not match

The jars are those of deploy/archive/target/classpath.txt, which `mvn package` writes (the
archive's runtime classpath); the POMs are read from the local Maven repository beside each jar.
deploy/archive/test-archive.sh runs --check, so a dependency added or upgraded without NOTICE
fails the test stage until this script is run again.
"""
import os
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLASSPATH = os.path.join(ROOT, "deploy", "archive", "target", "classpath.txt")
NOTICE = os.path.join(ROOT, "NOTICE")
M2 = os.path.join(os.path.expanduser("~"), ".m2", "repository")

HEAD = """Plumb
Copyright 2026 the Plumb authors

Plumb is licensed under the Apache License, Version 2.0: see LICENSE.

The release archive (plumb-<version>.tar.gz) ships the third-party jars below in lib/, unchanged,
each under its own licence, as its POM declares it. Each jar carries its licence and notices
inside it (META-INF/LICENSE*, META-INF/NOTICE* where the project provides them).
This list is written by deploy/archive/notice.py from the archive's runtime classpath.

"""


def parse(pom):
    """The POM's root, its tags without namespace: some POMs declare Maven's, some none."""
    root = ET.parse(pom).getroot()
    for element in root.iter():
        element.tag = element.tag.rsplit("}", 1)[-1]
    return root


def text(element, path):
    found = element.find(path)
    return found.text.strip() if found is not None and found.text else None


def pom_path(group, artifact, version):
    return os.path.join(M2, *group.split("."), artifact, version, f"{artifact}-{version}.pom")


def licences(pom):
    """The licence names the POM declares, following parent POMs until one declares some."""
    seen = 0
    while pom and os.path.exists(pom) and seen < 10:
        seen += 1
        root = parse(pom)
        names = [text(l, "name") or text(l, "url") for l in root.findall("licenses/license")]
        names = [n for n in names if n]
        if names:
            return names
        parent = root.find("parent")
        if parent is None:
            break
        pom = pom_path(text(parent, "groupId"), text(parent, "artifactId"), text(parent, "version"))
    return []


def entries():
    rows = []
    for jar in open(CLASSPATH).read().strip().split(":"):
        if not jar.startswith(M2):
            continue  # Plumb's own modules
        rel = os.path.relpath(jar, M2).split(os.sep)
        group, artifact, version = ".".join(rel[:-3]), rel[-3], rel[-2]
        names = licences(os.path.join(os.path.dirname(jar), f"{artifact}-{version}.pom"))
        rows.append((os.path.basename(jar), f"{group}:{artifact}:{version}", "; ".join(names) or "no licence in its POM"))
    return sorted(rows)


def render(rows):
    width = max(len(r[0]) for r in rows)
    lines = [f"{jar:<{width}}  {licence}\n{'':<{width}}  ({coordinates})" for jar, coordinates, licence in rows]
    return HEAD + "\n".join(lines) + "\n"


def main():
    if not os.path.exists(CLASSPATH):
        sys.exit(f"notice: {CLASSPATH} is missing: run 'mvn -q package -DskipTests' first")
    wanted = render(entries())
    if sys.argv[1:] == ["--check"]:
        have = open(NOTICE).read() if os.path.exists(NOTICE) else ""
        if have != wanted:
            missing = [r[0] for r in entries() if r[0] not in have]
            sys.exit("notice: NOTICE does not list the archive's jars as they are"
                     + (f" (missing: {', '.join(missing)})" if missing else "")
                     + ": run deploy/archive/notice.py")
        return
    with open(NOTICE, "w") as out:
        out.write(wanted)


if __name__ == "__main__":
    main()
