package io.sf2loki.daemon.ops;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Markdown pages: the anchors their headings get when rendered (GitHub's), their links. */
final class DocPages {

  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

  private DocPages() {}

  /** The anchors of every heading of {@code page}. */
  static Set<String> anchors(Path page) throws IOException {
    Set<String> anchors = new TreeSet<>();
    boolean fenced = false;
    for (String line : Files.readAllLines(page)) {
      if (line.startsWith("```")) {
        fenced = !fenced;
      } else if (!fenced && line.startsWith("#")) {
        anchors.add(slug(line.replaceFirst("^#+\\s*", "")));
      }
    }
    return anchors;
  }

  /** The text of every level-3 heading of {@code page} (the alerts' own sections). */
  static Set<String> sectionTitles(Path page) throws IOException {
    Set<String> titles = new TreeSet<>();
    for (String line : Files.readAllLines(page)) {
      if (line.startsWith("### ")) {
        titles.add(line.substring(4).strip());
      }
    }
    return titles;
  }

  /** The text of every level-3 section of {@code page}, by its heading, up to the next heading. */
  static Map<String, String> sections(Path page) throws IOException {
    Map<String, String> sections = new TreeMap<>();
    String title = null;
    StringBuilder text = new StringBuilder();
    for (String line : Files.readAllLines(page)) {
      if (line.startsWith("#")) {
        if (title != null) {
          sections.put(title, text.toString());
        }
        title = line.startsWith("### ") ? line.substring(4).strip() : null;
        text.setLength(0);
      } else {
        text.append(line).append('\n');
      }
    }
    if (title != null) {
      sections.put(title, text.toString());
    }
    return sections;
  }

  /** GitHub's heading anchor: lower case, punctuation dropped, spaces as hyphens. */
  static String slug(String heading) {
    return heading
        .strip()
        .toLowerCase(Locale.ROOT)
        .replaceAll("[^\\p{L}\\p{N} _-]", "")
        .replace(' ', '-');
  }

  /**
   * The relative links of {@code page} (outside code blocks) whose file or anchor does not exist,
   * each with the reason.
   */
  static List<String> brokenLinks(Path page) throws IOException {
    List<String> broken = new ArrayList<>();
    boolean fenced = false;
    for (String line : Files.readAllLines(page)) {
      if (line.startsWith("```")) {
        fenced = !fenced;
        continue;
      }
      Matcher m = LINK.matcher(fenced ? "" : line);
      while (m.find()) {
        String target = m.group(1);
        if (target.contains("://") || target.startsWith("mailto:")) {
          continue;
        }
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        Path resolved = file.isEmpty() ? page : page.resolveSibling(file).normalize();
        if (!Files.exists(resolved)) {
          broken.add(target + ": no " + resolved);
        } else if (hash >= 0
            && resolved.toString().endsWith(".md")
            && !anchors(resolved).contains(target.substring(hash + 1))) {
          broken.add(target + ": no heading with that anchor in " + resolved);
        }
      }
    }
    return broken;
  }
}
