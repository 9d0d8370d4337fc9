package io.plumb.docs;

import java.util.ArrayList;
import java.util.List;

/**
 * A quoted shell line cut into its simple commands and their words, as far as the project's docs
 * use the shell: quotes, backslashes, comments, {@code &&}, {@code ;}, {@code |}, {@code &} and
 * redirections (dropped with their targets). No expansion: a glob or a variable stays a word.
 */
final class ShellWords {
  private ShellWords() {}

  static List<List<String>> commands(String line) {
    List<List<String>> commands = new ArrayList<>();
    List<String> words = new ArrayList<>();
    StringBuilder word = new StringBuilder();
    boolean inWord = false;
    boolean redirect = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '\'' || c == '"') {
        int end = line.indexOf(c, i + 1);
        if (end < 0) {
          end = line.length();
        }
        word.append(line, i + 1, end);
        inWord = true;
        i = end;
      } else if (c == '\\' && i + 1 < line.length() && line.charAt(i + 1) == '\n') {
        i++; // a line continued: the break is a space
        if (inWord) {
          redirect = add(words, word, redirect, false);
          inWord = false;
        }
      } else if (c == '\\' && i + 1 < line.length()) {
        word.append(line.charAt(++i));
        inWord = true;
      } else if (c == '#' && !inWord) {
        break;
      } else if (Character.isWhitespace(c) || "&;|<>".indexOf(c) >= 0) {
        if (inWord) {
          redirect = add(words, word, redirect, c == '>' || c == '<');
          inWord = false;
        } else if (c == '>' || c == '<') {
          redirect = true;
        }
        if ("&;|".indexOf(c) >= 0 && !(c == '&' && i > 0 && line.charAt(i - 1) == '>')) {
          if (!words.isEmpty()) {
            commands.add(words);
          }
          words = new ArrayList<>();
        }
        if (c == '>' && i + 1 < line.length() && line.charAt(i + 1) == '&') {
          i += 2; // 2>&1: the descriptor after it is no file name
          redirect = false;
        }
      } else {
        word.append(c);
        inWord = true;
      }
    }
    if (inWord) {
      add(words, word, redirect, false);
    }
    if (!words.isEmpty()) {
      commands.add(words);
    }
    return commands;
  }

  /**
   * Ends a word: kept unless it is a redirection's target (or a descriptor number before one).
   * Returns whether the next word is a redirection's target.
   */
  private static boolean add(
      List<String> words, StringBuilder word, boolean target, boolean redirectFollows) {
    String text = word.toString();
    word.setLength(0);
    boolean descriptor = redirectFollows && text.matches("\\d");
    if (!target && !descriptor) {
      words.add(text);
    }
    return redirectFollows;
  }
}
