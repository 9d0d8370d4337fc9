package io.plumb.report;

/** Escaping for text placed in HTML, and for JSON placed inside a script element. */
final class Html {
  private Html() {}

  static String text(String raw) {
    StringBuilder escaped = new StringBuilder(raw.length());
    for (char c : raw.toCharArray()) {
      switch (c) {
        case '<' -> escaped.append("&lt;");
        case '>' -> escaped.append("&gt;");
        case '&' -> escaped.append("&amp;");
        case '"' -> escaped.append("&quot;");
        case '\'' -> escaped.append("&#39;");
        default -> escaped.append(c);
      }
    }
    return escaped.toString();
  }

  /**
   * JSON that can sit inside {@code <script>}: a "</" would end the element early, and "<\/" means
   * the same in JSON. U+2028/9 are escaped for older JavaScript parsers.
   */
  static String scriptJson(String json) {
    return json.replace("</", "<\\/").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029");
  }
}
