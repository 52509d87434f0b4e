#!/usr/bin/env python3
"""The manual stays inside the repository (labels unit, tools):

- every relative link of README.md and docs/*.md, [text](target), names a file or folder inside
  the repository that exists, and a #fragment names a heading of the Markdown file it points at;
- no tracked file names the outside specification or the sibling folder the repository once
  pointed at (the strings are built below so that this file does not hold them).

    check_docs_links.py [--root REPO]

Prints each problem as `file:line: what` and exits 1 when there is one, 0 otherwise."""

import argparse
import os
import re
import subprocess
import sys

FORBIDDEN = ["SPEC" + ".md", ".." + "/shared"]
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def tracked_files(root):
    """The files git tracks under root, or every file outside .git and build folders."""
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], check=True,
                             capture_output=True).stdout
        return [p for p in out.decode().split("\0") if p]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for folder, dirs, names in os.walk(root):
            dirs[:] = [d for d in dirs if d != ".git" and not d.startswith("build")]
            files += [os.path.relpath(os.path.join(folder, n), root) for n in names]
        return files


def slug(heading):
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to '-'."""
    text = heading.strip().lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    found = set()
    in_code = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.lstrip().startswith("```"):
                in_code = not in_code
            elif not in_code and line.startswith("#"):
                found.add(slug(line.lstrip("#")))
    return found


def link_problems(root, md):
    problems = []
    path = os.path.join(root, md)
    in_code = False
    with open(path, encoding="utf-8") as f:
        lines = f.readlines()
    for number, line in enumerate(lines, 1):
        if line.lstrip().startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        for target in LINK.findall(re.sub(r"`[^`]*`", "", line)):
            if SCHEME.match(target):
                continue  # http:, https:, mailto: are not paths of the repository
            file_part, _, fragment = target.partition("#")
            where = f"{md}:{number}"
            resolved = os.path.realpath(os.path.join(os.path.dirname(path), file_part)) \
                if file_part else os.path.realpath(path)
            if resolved != root and not resolved.startswith(root + os.sep):
                problems.append(f"{where}: link '{target}' points outside the repository")
                continue
            if not os.path.exists(resolved):
                problems.append(f"{where}: link '{target}': {os.path.relpath(resolved, root)} "
                                "does not exist")
                continue
            if fragment and resolved.endswith(".md") and fragment not in anchors(resolved):
                problems.append(f"{where}: link '{target}': no heading #{fragment} in "
                                f"{os.path.relpath(resolved, root)}")
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", default=os.path.join(os.path.dirname(__file__), "..", ".."))
    root = os.path.realpath(parser.parse_args().root)
    files = tracked_files(root)
    manual = ["README.md"] + sorted(f for f in files if re.fullmatch(r"docs/[^/]+\.md", f))
    problems = []
    for md in manual:
        if os.path.exists(os.path.join(root, md)):
            problems += link_problems(root, md)
        else:
            problems.append(f"{md}: missing")
    for name in files:
        path = os.path.join(root, name)
        if not os.path.isfile(path):
            continue
        with open(path, "rb") as f:
            data = f.read()
        for text in FORBIDDEN:
            start = data.find(text.encode())
            while start >= 0:
                line = data[:start].count(b"\n") + 1
                problems.append(f"{name}:{line}: names '{text}', which is not in the repository")
                start = data.find(text.encode(), start + 1)
    for p in problems:
        print(p)
    print(f"checked {len(manual)} Markdown files and {len(files)} tracked files: "
          f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
