package io.sf2loki.config.orgs;

import io.sf2loki.config.ConfigProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names the problems of an org's derived configuration where the user wrote them: a key of the
 * org's {@code salesforce} or {@code sources} (set in the org or inherited from the top level) is
 * {@code orgs[1].salesforce.client_id}, an org's own {@code sink.loki.tenant_id} or {@code labels}
 * likewise; a problem of the shared sections keeps its path and is reported once.
 */
final class OrgProblems {

  /** A path or a mention of one that starts at one of the org's own sections. */
  private static final Pattern OWN =
      Pattern.compile("(?<![\\w.\\[\\]])(salesforce|sources)(?=\\.\\w)");

  private OrgProblems() {}

  /** {@code problem}, whose paths start at the org's sections, named under {@code orgPath}. */
  static ConfigProblem underOrg(ConfigProblem problem, String orgPath) {
    return new ConfigProblem(
        orgPath + "." + problem.path(), prefixMentions(problem.message(), orgPath));
  }

  /**
   * The problems of one org's derived configuration. A problem of a shared section is kept for
   * every org: the same problem again is one problem once the caller de-duplicates them, while a
   * shared-section problem only this org's derived configuration has (a rule across its sources and
   * the shared sink, say) must not vanish with the org, which would then be silently left out.
   *
   * @param ownSinkKeys the {@code sink.loki} keys the org sets itself ({@code sink.loki.tenant_id},
   *     {@code sink.loki.labels})
   */
  static List<ConfigProblem> of(
      List<ConfigProblem> problems, String orgPath, Set<String> ownSinkKeys) {
    List<ConfigProblem> out = new ArrayList<>();
    for (ConfigProblem p : problems) {
      String root = p.path().split("\\.", 2)[0];
      if (root.equals("salesforce") || root.equals("sources")) {
        out.add(underOrg(p, orgPath));
      } else if (ownSinkKeys.stream()
          .anyMatch(k -> p.path().equals(k) || p.path().startsWith(k + "."))) {
        out.add(
            new ConfigProblem(
                orgPath + "." + p.path(), p.message().replace(p.path(), orgPath + "." + p.path())));
      } else {
        out.add(p);
      }
    }
    return out;
  }

  private static String prefixMentions(String message, String orgPath) {
    Matcher m = OWN.matcher(message);
    return m.replaceAll(Matcher.quoteReplacement(orgPath) + ".$1");
  }
}
