package io.sf2loki.daemon.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The pack's pages link only to files and headings that exist (the runbooks are followed). */
class DocLinksTest {

  @ParameterizedTest
  @ValueSource(strings = {"alerts.md", "dashboards.md", "loki-rules.md", "metrics.md"})
  void everyRelativeLinkOfThePageReachesAFileAndHeading(String page) throws Exception {
    Path file = DeployFiles.OBSERVABILITY.resolve(page);

    assertThat(DocPages.brokenLinks(file)).isEmpty();
  }
}
