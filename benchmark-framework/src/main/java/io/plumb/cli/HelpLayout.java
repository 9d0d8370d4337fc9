package io.plumb.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * Lays out {@code --help} for an 80-column terminal and for a pipe alike. Picocli's own layout
 * breaks text wherever Java's line BreakIterator allows, which splits addresses and paths ("10.\n
 * 0.0.5:9092", "e.\ng.") and re-wraps hard-wrapped paragraphs into alternating long and short
 * lines. Here the command's description is written as paragraphs (array elements joined, an empty
 * element between paragraphs, an indented element starting a line of its own), every text is
 * wrapped at spaces only, and footers (the examples) are printed exactly as written.
 */
final class HelpLayout {
  static final int WIDTH = 80;
  private static final String OPTION_INDENT = "        ";

  private HelpLayout() {}

  /** Installs this layout on {@code commandLine}. */
  static CommandLine apply(CommandLine commandLine) {
    commandLine.setUsageHelpWidth(WIDTH);
    commandLine.setUsageHelpAutoWidth(false);
    Map<String, CommandLine.IHelpSectionRenderer> sections = commandLine.getHelpSectionMap();
    sections.put(UsageMessageSpec.SECTION_KEY_SYNOPSIS_HEADING, help -> "");
    sections.put(UsageMessageSpec.SECTION_KEY_SYNOPSIS, help -> synopsis(help.commandSpec()));
    sections.put(UsageMessageSpec.SECTION_KEY_DESCRIPTION_HEADING, help -> "\n");
    sections.put(
        UsageMessageSpec.SECTION_KEY_PARAMETER_LIST_HEADING,
        help -> help.commandSpec().positionalParameters().isEmpty() ? "" : "\nArguments:\n");
    sections.put(UsageMessageSpec.SECTION_KEY_OPTION_LIST_HEADING, help -> "\nOptions:\n");
    sections.put(
        UsageMessageSpec.SECTION_KEY_DESCRIPTION,
        help -> description(help.commandSpec().usageMessage().description()));
    sections.put(UsageMessageSpec.SECTION_KEY_PARAMETER_LIST, HelpLayout::parameters);
    sections.put(UsageMessageSpec.SECTION_KEY_OPTION_LIST, HelpLayout::options);
    sections.put(
        UsageMessageSpec.SECTION_KEY_FOOTER,
        help -> verbatim(help.commandSpec().usageMessage().footer()));
    return commandLine;
  }

  private static String synopsis(CommandSpec spec) {
    StringBuilder line = new StringBuilder(spec.name()).append(" [OPTIONS]");
    for (OptionSpec option : spec.options()) {
      if (option.required()) {
        line.append(' ').append(option.shortestName()).append(' ').append(label(option));
      }
    }
    for (PositionalParamSpec parameter : spec.positionalParameters()) {
      line.append(' ').append(parameter.paramLabel());
      if (parameter.arity().max() > 1) {
        line.append("...");
      }
    }
    return String.join("\n", wrap(line.toString(), "Usage: ", "       ")) + "\n";
  }

  /**
   * Array elements joined into paragraphs, an empty element between paragraphs. An element that
   * starts with "- " after its indent is a bullet; indented elements after it continue the bullet.
   */
  static String description(String[] lines) {
    StringBuilder out = new StringBuilder();
    StringBuilder paragraph = new StringBuilder();
    String indent = "";
    for (String raw : lines) {
      String line = format(raw);
      if (line.isBlank()) {
        flush(out, paragraph, indent);
        out.append('\n');
        continue;
      }
      String lineIndent = line.substring(0, line.length() - line.stripLeading().length());
      boolean bullet = line.stripLeading().startsWith("- ");
      boolean continues =
          paragraph.length() > 0 && !bullet && lineIndent.isEmpty() == indent.isEmpty();
      if (!continues) {
        flush(out, paragraph, indent);
        indent = lineIndent;
      } else {
        paragraph.append(' ');
      }
      paragraph.append(line.strip());
    }
    flush(out, paragraph, indent);
    return out.toString();
  }

  private static void flush(StringBuilder out, StringBuilder paragraph, String indent) {
    if (paragraph.length() > 0) {
      // A bullet's continuation lines line up under its text.
      String hanging = indent + (paragraph.toString().startsWith("- ") ? "  " : "");
      for (String line : wrap(paragraph.toString(), indent, hanging)) {
        out.append(line).append('\n');
      }
      paragraph.setLength(0);
    }
  }

  private static String parameters(Help help) {
    StringBuilder out = new StringBuilder();
    for (PositionalParamSpec parameter : help.commandSpec().positionalParameters()) {
      if (!parameter.hidden()) {
        entry(out, "  " + parameter.paramLabel() + "...", parameter.description());
      }
    }
    return out.toString();
  }

  private static String options(Help help) {
    StringBuilder out = new StringBuilder();
    for (OptionSpec option : help.commandSpec().options()) {
      if (option.hidden()) {
        continue;
      }
      String names = String.join(", ", option.names());
      String label = label(option);
      entry(out, "  " + names + (label.isEmpty() ? "" : " " + label), option.description());
    }
    return out.toString();
  }

  /** The name line, then the description wrapped below it. */
  private static void entry(StringBuilder out, String head, String[] description) {
    out.append(head).append('\n');
    for (String line : wrap(format(String.join(" ", description)), OPTION_INDENT, OPTION_INDENT)) {
      out.append(line).append('\n');
    }
  }

  private static String label(OptionSpec option) {
    if (option.arity().max() == 0) {
      return "";
    }
    String label = option.paramLabel();
    return option.splitRegex().isEmpty()
        ? label
        : label + "[" + option.splitRegex() + label + "...]";
  }

  private static String verbatim(String[] lines) {
    StringBuilder out = new StringBuilder();
    for (String line : lines) {
      out.append(format(line)).append('\n');
    }
    return out.toString();
  }

  /** Picocli's own escapes in annotation texts. */
  private static String format(String text) {
    return text.replace("%n", "\n").replace("%%", "%");
  }

  /** Words of {@code text} filled to {@link #WIDTH}, broken at spaces only. */
  static List<String> wrap(String text, String firstIndent, String nextIndent) {
    List<String> lines = new ArrayList<>();
    StringBuilder line = new StringBuilder(firstIndent);
    boolean hasWord = false;
    for (String word : text.strip().split("\\s+")) {
      if (hasWord && line.length() + 1 + word.length() > WIDTH) {
        lines.add(line.toString());
        line = new StringBuilder(nextIndent);
        hasWord = false;
      }
      if (hasWord) {
        line.append(' ');
      }
      line.append(word);
      hasWord = true;
    }
    lines.add(line.toString());
    return lines;
  }
}
