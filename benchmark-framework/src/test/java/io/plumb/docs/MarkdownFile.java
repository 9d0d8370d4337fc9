package io.plumb.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One of the project's Markdown files, read the way a reader meets it: the command lines its code
 * blocks quote, the relative links of its prose, and the anchors its headings make (GitHub's).
 */
record MarkdownFile(Path root, Path path, List<String> lines) {
  private static final Pattern FENCE = Pattern.compile("^\\s*(```+|~~~+)");
  private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.*?)\\s*#*\\s*$");
  private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
  private static final Pattern INLINE_CODE = Pattern.compile("`[^`]*`");
  private static final Set<String> NOT_SCANNED =
      Set.of(".git", "target", "results", ".plumb", "node_modules");

  /** A relative link: where it is, and what it points at. */
  record Link(String where, String target) {}

  /** A command line quoted in a code block, continuation lines joined. */
  record QuotedCommand(String where, String text) {}

  /** The directory that holds the project's top-level pom.xml and bin/benchmark. */
  static Path projectRoot() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.isRegularFile(dir.resolve("bin/benchmark"))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException("no bin/benchmark above " + Path.of("").toAbsolutePath());
    }
    return dir;
  }

  /** Every Markdown file of the project, build output and run results left out. */
  static List<MarkdownFile> all() {
    Path root = projectRoot();
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(path -> path.toString().endsWith(".md"))
          .filter(path -> root.relativize(path).getNameCount() > 0)
          .filter(path -> !scannedAway(root.relativize(path)))
          .sorted()
          .map(path -> read(root, path))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean scannedAway(Path relative) {
    for (Path part : relative) {
      if (NOT_SCANNED.contains(part.toString())) {
        return true;
      }
    }
    return false;
  }

  static MarkdownFile read(Path root, Path path) {
    try {
      return new MarkdownFile(root, path, Files.readAllLines(path));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  String name() {
    return root.relativize(path).toString();
  }

  /**
   * The lines of fenced code blocks and of indented ones (four spaces, after a blank line), with a
   * {@code $ } prompt taken off and a trailing backslash joining a line to the next.
   */
  List<QuotedCommand> quotedCommands() {
    List<QuotedCommand> commands = new ArrayList<>();
    boolean[] fenced = fenced();
    boolean indented = false;
    StringBuilder joined = new StringBuilder();
    int firstLine = 0;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (FENCE.matcher(line).find()) {
        continue;
      }
      String text = line.strip();
      boolean afterBlank = i == 0 || lines.get(i - 1).isBlank();
      indented = line.startsWith("    ") && !text.isEmpty() && (indented || afterBlank);
      if (!fenced[i] && !indented && joined.isEmpty()) {
        continue;
      }
      if (text.startsWith("$ ")) {
        text = text.substring(2);
      }
      if (joined.isEmpty()) {
        firstLine = i + 1;
      }
      if (text.endsWith("\\")) {
        joined.append(text, 0, text.length() - 1).append(' ');
        continue;
      }
      joined.append(text);
      commands.add(new QuotedCommand(name() + ":" + firstLine, joined.toString()));
      joined.setLength(0);
    }
    return commands;
  }

  /** Links to files of the project (not to web addresses), outside code. */
  List<Link> relativeLinks() {
    List<Link> links = new ArrayList<>();
    boolean[] fenced = fenced();
    for (int i = 0; i < lines.size(); i++) {
      if (fenced[i]) {
        continue;
      }
      Matcher link = LINK.matcher(INLINE_CODE.matcher(lines.get(i)).replaceAll(""));
      while (link.find()) {
        String target = link.group(1);
        if (!target.matches("^[a-z]+:.*")) {
          links.add(new Link(name() + ":" + (i + 1), target));
        }
      }
    }
    return links;
  }

  /** The anchors GitHub gives this file's headings; a repeated heading gets -1, -2 and so on. */
  Set<String> anchors() {
    Set<String> anchors = new HashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    boolean[] fenced = fenced();
    for (int i = 0; i < lines.size(); i++) {
      Matcher heading = HEADING.matcher(lines.get(i));
      if (fenced[i] || !heading.matches()) {
        continue;
      }
      String slug = slug(heading.group(2));
      int times = seen.merge(slug, 1, Integer::sum) - 1;
      anchors.add(times == 0 ? slug : slug + "-" + times);
    }
    return anchors;
  }

  /** Per line: whether it is a fence (```) or between two, where nothing is prose. */
  private boolean[] fenced() {
    boolean[] fenced = new boolean[lines.size()];
    boolean inside = false;
    for (int i = 0; i < lines.size(); i++) {
      boolean fence = FENCE.matcher(lines.get(i)).find();
      fenced[i] = inside || fence;
      inside ^= fence;
    }
    return fenced;
  }

  /** GitHub's rule: lower case, letters, digits, '-' and '_' kept, spaces to '-'. */
  static String slug(String heading) {
    String text = heading.strip().toLowerCase().replace("`", "");
    text = text.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1");
    StringBuilder slug = new StringBuilder();
    text.codePoints()
        .filter(c -> c == '-' || c == '_' || c == ' ' || Character.isLetterOrDigit(c))
        .forEach(c -> slug.appendCodePoint(c == ' ' ? '-' : c));
    return slug.toString();
  }
}
