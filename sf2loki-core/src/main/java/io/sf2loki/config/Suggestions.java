package io.sf2loki.config;

import java.util.Collection;
import java.util.Optional;

/** "Did you mean" for mistyped keys and type names. */
public final class Suggestions {

  private Suggestions() {}

  /**
   * The candidate nearest to {@code input}, when it is close enough to be a plausible typo: within
   * a third of the input's last segment length in edits, or sharing its last segment.
   */
  public static Optional<String> nearest(String input, Collection<String> candidates) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      int d = distance(input, candidate);
      if (d < bestDistance) {
        best = candidate;
        bestDistance = d;
      }
    }
    if (best == null) {
      return Optional.empty();
    }
    String leaf = lastSegment(input);
    int allowed = Math.max(2, leaf.length() / 3);
    boolean sameLeaf = lastSegment(best).equals(leaf);
    return bestDistance <= allowed || sameLeaf ? Optional.of(best) : Optional.empty();
  }

  private static String lastSegment(String path) {
    int dot = path.lastIndexOf('.');
    return dot < 0 ? path : path.substring(dot + 1);
  }

  /** Levenshtein distance. */
  static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
