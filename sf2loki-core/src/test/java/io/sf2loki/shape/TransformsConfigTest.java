package io.sf2loki.shape;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import io.sf2loki.config.ConfigProblem;
import io.sf2loki.config.ConfigReader;
import java.util.List;
import org.junit.jupiter.api.Test;

class TransformsConfigTest {

  static List<String> problems(String rules) {
    ConfigReader root =
        ConfigReader.of(
            ConfigFactory.parseString(
                    "sources.apexlog { max_label_values = 100, transforms = [" + rules + "] }")
                .resolve());
    ShapingConfig.bind(root.section("sources.apexlog"));
    return root.problems().stream().map(ConfigProblem::message).toList();
  }

  @Test
  void everyRuleMistakeIsReportedWithItsKeyPath() {
    assertThat(
            problems(
                "{action = scramble, fields = [A]},"
                    + "{action = hash},"
                    + "{action = mask, fields = [A], pattern = x},"
                    + "{action = regex_replace, fields = [Body], pattern = \"(unclosed\"},"
                    + "{action = drop_row, fields = [A]},"
                    + "{action = drop_field, fields = [A], colour = red}"))
        .containsExactlyInAnyOrder(
            "sources.apexlog.transforms.0.action must be one of hash, mask, drop_field,"
                + " regex_replace, drop_row (got 'scramble')",
            "sources.apexlog.transforms.1.fields must list at least one field for hash",
            "sources.apexlog.transforms.2.pattern is only allowed with action regex_replace",
            "sources.apexlog.transforms.3.pattern does not compile: Unclosed group near index 9",
            "sources.apexlog.transforms.4.fields is not allowed with action drop_row (use match)",
            "sources.apexlog.transforms.4.match must map at least one field to a glob for drop_row",
            "sources.apexlog.transforms.5.colour is not a transform key (allowed: [action,"
                + " event_types, fields, match, name, pattern, replacement])");
  }

  @Test
  void aReplacementNamingAMissingGroupIsRejected() {
    assertThat(
            problems(
                "{action = regex_replace, fields = [Body], pattern = \"(a)\", replacement ="
                    + " \"\\\\2\"},"
                    + "{action = regex_replace, fields = [Body], pattern = a, replacement = \"$\"}"))
        .containsExactly(
            "sources.apexlog.transforms.0.replacement refers to group $2, which the pattern does"
                + " not define",
            "sources.apexlog.transforms.1.replacement has a stray '$' or a trailing backslash"
                + " (write \\$ for a literal dollar)");
  }

  @Test
  void aValidListBindsWithoutProblems() {
    assertThat(
            problems(
                "{name = r, action = regex_replace, fields = [Body], pattern = \"(\\\\d+)\","
                    + " replacement = \"#$1\"}"))
        .isEmpty();
  }
}
