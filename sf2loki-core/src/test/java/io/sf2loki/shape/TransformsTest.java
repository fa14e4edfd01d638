package io.sf2loki.shape;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import io.sf2loki.config.ConfigReader;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TransformsTest {

  static Transforms bind(String hocon) {
    ConfigReader root = ConfigReader.of(ConfigFactory.parseString(hocon).resolve());
    ShapingConfig config = ShapingConfig.bind(root.section("sources.eventlog_objects"));
    root.throwIfInvalid();
    return config.transforms();
  }

  static String conf(String rules) {
    return "sources { transform_salt = pepper, eventlog_objects { max_label_values = 100,"
        + " transforms = ["
        + rules
        + "] } }";
  }

  static Map<String, Object> row() {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("Id", "0Yw000000000001AAA");
    row.put("Username", "ann@example.com");
    row.put("SourceIp", "203.0.113.77");
    row.put("Browser", "Firefox 130");
    row.put("UserId", "005000000000001AAA");
    row.put("Count", 7L);
    return row;
  }

  @Test
  void hashIsTheFirst16HexOfSha256OfSaltAndValue() {
    Transforms t = bind(conf("{action = hash, fields = [UserId, Count, Missing]}"));
    Map<String, Object> row = row();
    t.apply("LoginEvent", row);
    // Python: hashlib.sha256(b"pepper005000000000001AAA").hexdigest()[:16]
    assertThat(row)
        .containsEntry("UserId", "847dbabccd7fd1c4")
        .containsEntry("Count", "1b44481921a511e3");
    assertThat(row).doesNotContainKey("Missing");
    assertThat(new Transforms(t.rules(), "other").hash("7")).isNotEqualTo(t.hash("7"));
  }

  @Test
  void maskKeepsTheMailDomainAndTheIpv4PrefixOnly() {
    Transforms t = bind(conf("{action = mask, fields = [Username, SourceIp, Browser]}"));
    Map<String, Object> row = row();
    t.apply("LoginEvent", row);
    assertThat(row)
        .containsEntry("Username", "***@example.com")
        .containsEntry("SourceIp", "203.0.113.x")
        .containsEntry("Browser", "***");
    assertThat(Transforms.mask("999.1.1.1")).isEqualTo("***");
    assertThat(Transforms.mask("10.01.1.1")).isEqualTo("***");
  }

  @Test
  void dropFieldRemovesTheKey() {
    Transforms t = bind(conf("{action = drop_field, fields = [SourceIp]}"));
    Map<String, Object> row = row();
    t.apply("LoginEvent", row);
    assertThat(row).doesNotContainKey("SourceIp").containsKey("Browser");
  }

  @Test
  void regexReplaceAcceptsPythonStyleGroupReferences() {
    Transforms t =
        bind(
            conf(
                "{action = regex_replace, fields = [Browser], pattern = \"(?<name>\\\\w+) (\\\\d+)\","
                    + " replacement = \"\\\\g<name>/\\\\2\"}"));
    Map<String, Object> row = row();
    t.apply("LoginEvent", row);
    assertThat(row).containsEntry("Browser", "Firefox/130");
  }

  @Test
  void dropRowNeedsEveryGlobToMatchAndNamesItsRule() {
    Transforms t =
        bind(
            conf(
                "{name = skip-bots, action = drop_row, match = {Browser = \"Fire*\", SourceIp ="
                    + " \"203.0.113.[0-9]*\"}},"
                    + "{action = drop_row, match = {Browser = \"Chrome*\"}}"));
    assertThat(t.apply("LoginEvent", row())).contains("skip-bots");
    Map<String, Object> other = row();
    other.put("SourceIp", "198.51.100.1");
    assertThat(t.apply("LoginEvent", other)).isEmpty();
    other.put("Browser", "Chrome 1");
    assertThat(t.apply("LoginEvent", other)).contains("drop_row-1");
  }

  @Test
  void rulesApplyOnlyToTheirEventTypes() {
    Transforms t =
        bind(conf("{action = drop_field, fields = [SourceIp], event_types = [\"Login*\"]}"));
    Map<String, Object> api = row();
    t.apply("ApiEvent", api);
    Map<String, Object> login = row();
    t.apply("LoginEvent", login);
    assertThat(api).containsKey("SourceIp");
    assertThat(login).doesNotContainKey("SourceIp");
    assertThat(t.dropsField("LoginEvent", "SourceIp")).isTrue();
    assertThat(t.dropsField("ApiEvent", "SourceIp")).isFalse();
  }

  @Test
  void globsFollowFnmatch() {
    assertThat(Glob.of("a?c[!x]*").matches("abcd/anything")).isTrue();
    assertThat(Glob.of("a?c[!x]*").matches("abcx")).isFalse();
    assertThat(Glob.of("[ab]").matches("B")).isFalse();
    assertThat(Glob.of("1.2").matches("1x2")).isFalse();
    assertThat(Glob.of("[").matches("[")).isTrue();
  }

  @Test
  void rulesApplyInListOrder() {
    Transforms t =
        bind(
            conf(
                "{action = mask, fields = [Username]},"
                    + "{action = regex_replace, fields = [Username], pattern = \"example\","
                    + " replacement = corp}"));
    Map<String, Object> row = row();
    assertThat(t.apply("LoginEvent", row)).isEqualTo(Optional.empty());
    assertThat(row.get("Username")).isEqualTo("***@corp.com");
    assertThat(t.rules())
        .extracting(TransformRule::name)
        .isEqualTo(List.of("mask-0", "regex_replace-1"));
  }
}
