package io.sf2loki.salesforce.limits;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A reading of the {@code Sforce-Limit-Info} header, e.g. {@code api-usage=18/5000} (other parts,
 * such as {@code per-app-api-usage=17/250(appName=x)}, may follow after commas).
 */
public sealed interface LimitInfo {

  /** The org's calls in the rolling 24 hours against its daily allocation. */
  record Usage(long used, long limit) implements LimitInfo {}

  /** A header without a usable {@code api-usage=used/limit} part. */
  record Malformed(String value) implements LimitInfo {}

  /** No header on the answer. */
  record Absent() implements LimitInfo {}

  /** Reads {@code header}; never throws. */
  static LimitInfo parse(Optional<String> header) {
    if (header.isEmpty()) {
      return new Absent();
    }
    for (String part : header.get().split(",")) {
      Matcher m = Holder.API_USAGE.matcher(part.trim());
      if (m.matches()) {
        try {
          long used = Long.parseLong(m.group(1));
          long limit = Long.parseLong(m.group(2));
          if (limit > 0) {
            return new Usage(used, limit);
          }
        } catch (NumberFormatException e) {
          // too many digits: malformed
        }
        break;
      }
    }
    return new Malformed(header.get());
  }

  /** The compiled pattern (an interface has no private static fields). */
  final class Holder {
    static final Pattern API_USAGE = Pattern.compile("api-usage=(\\d{1,18})/(\\d{1,18})");

    private Holder() {}
  }
}
