package io.plumb.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every relative link in the project's Markdown reaches a file of the project, and its {@code
 * #anchor} a heading of that file; none points into results/, which a reader does not have.
 */
class DocumentationLinksTest {

  @Test
  void everyRelativeLinkResolves() {
    List<String> broken = new ArrayList<>();
    int checked = 0;
    for (MarkdownFile file : MarkdownFile.all()) {
      for (MarkdownFile.Link link : file.relativeLinks()) {
        checked++;
        String problem = problem(file, link.target());
        if (problem != null) {
          broken.add(link.where() + ": " + link.target() + ": " + problem);
        }
      }
    }
    assertTrue(checked >= 100, "found only " + checked + " links: is the scan broken?");
    assertEquals("", String.join("\n", broken));
  }

  @Test
  void aLinkToAMissingHeadingOrFileIsFound() {
    MarkdownFile readme =
        MarkdownFile.read(
            MarkdownFile.projectRoot(), MarkdownFile.projectRoot().resolve("README.md"));
    assertEquals("no heading #no-such-heading in README.md", problem(readme, "#no-such-heading"));
    assertEquals("no file docs/nowhere.md", problem(readme, "docs/nowhere.md"));
    assertEquals(null, problem(readme, "LICENSE"));
  }

  @Test
  void anchorsFollowGitHubsRule() {
    assertEquals("what-fsync-buys-power-loss", MarkdownFile.slug("What fsync buys: power loss"));
    assertEquals(
        "the-smallest-real-driver-driver-nats-in-core-mode",
        MarkdownFile.slug("The smallest real driver: `driver-nats` in core mode"));
    assertEquals("plumb--for-the-people", MarkdownFile.slug("Plumb — for the people"));
  }

  private static String problem(MarkdownFile from, String target) {
    int hash = target.indexOf('#');
    String file = hash < 0 ? target : target.substring(0, hash);
    String anchor = hash < 0 ? "" : target.substring(hash + 1);
    Path root = from.root();
    Path resolved =
        file.isEmpty() ? from.path() : from.path().getParent().resolve(file).normalize();
    String name = root.relativize(resolved).toString();
    if (!Files.exists(resolved)) {
      return "no file " + name;
    }
    if (name.startsWith("results/")) {
      return "points into results/, which a reader does not have";
    }
    if (anchor.isEmpty()) {
      return null;
    }
    Set<String> anchors = MarkdownFile.read(root, resolved).anchors();
    return anchors.contains(anchor) ? null : "no heading #" + anchor + " in " + name;
  }
}
