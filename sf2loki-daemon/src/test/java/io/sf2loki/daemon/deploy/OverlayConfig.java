package io.sf2loki.daemon.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import io.sf2loki.config.ConfigLoader;
import io.sf2loki.config.LoadedConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The configuration an overlay ships: the files of its rendered {@code sf2loki-config} ConfigMap,
 * written into a directory as the pod mounts them, and the coordinator facts the manifests must
 * agree with, read straight from the HOCON (so they can be read before the loader knows every key).
 *
 * @param file the main file, {@code sf2loki.conf}, next to the files it includes
 * @param raw the file parsed and resolved against {@code environment}, without the defaults
 */
record OverlayConfig(Path file, Config raw) {

  /** The ConfigMap's name before kustomize appends the content hash. */
  static final String CONFIG_MAP = "sf2loki-config";

  /** The roster Lease's suffix: the live replicas, which share the orgs out among themselves. */
  static final String ROSTER_SUFFIX = "-roster";

  /** Writes the ConfigMap of {@code rendered} into {@code dir} and parses it. */
  static OverlayConfig of(Rendered rendered, Path dir, Map<String, String> environment)
      throws IOException {
    Map<String, Object> configMap = configMap(rendered);
    Map<String, Object> data = Rendered.map(configMap.get("data"));
    for (Map.Entry<String, Object> e : data.entrySet()) {
      Files.writeString(dir.resolve(e.getKey()), String.valueOf(e.getValue()));
    }
    Path file = dir.resolve("sf2loki.conf");
    assertThat(file).as("sf2loki.conf in the ConfigMap of %s", rendered.overlay()).exists();
    Config raw =
        ConfigFactory.parseFile(file.toFile(), ConfigParseOptions.defaults().setAllowMissing(false))
            .resolveWith(ConfigFactory.parseMap(environment));
    return new OverlayConfig(file, raw);
  }

  /** The rendered ConfigMap the generator made ({@code sf2loki-config-<hash>}). */
  static Map<String, Object> configMap(Rendered rendered) {
    List<Map<String, Object>> generated =
        rendered.all("ConfigMap").stream()
            .filter(c -> name(c).startsWith(CONFIG_MAP + "-"))
            .toList();
    assertThat(generated).as("the sf2loki-config ConfigMap of %s", rendered.overlay()).hasSize(1);
    return generated.get(0);
  }

  static String name(Map<String, Object> object) {
    return String.valueOf(Rendered.at(object, "metadata", "name"));
  }

  /** The file as the daemon loads it in {@code environment}: over the defaults, with overrides. */
  LoadedConfig loaded(Map<String, String> environment) {
    return new ConfigLoader(OverlayConfig.class.getClassLoader(), environment)
        .load(Optional.of(file));
  }

  /** {@code coordinate.type}, {@code noop} when unset (the default). */
  String coordinator() {
    return raw.hasPath("coordinate.type") ? raw.getString("coordinate.type") : "noop";
  }

  /** The names of the {@code orgs} entries, empty for one org. */
  List<String> orgs() {
    return raw.hasPath("orgs")
        ? raw.getConfigList("orgs").stream().map(o -> o.getString("name")).toList()
        : List.of();
  }

  /**
   * The Kubernetes Leases a {@code k8s_lease} config takes: {@code coordinate.k8s_lease.name}, or
   * {@code <name>-<org>} per org and, with two orgs or more, the roster {@code <name>-roster} the
   * replicas share the orgs out through; none for another coordinator.
   */
  List<String> leaseNames() {
    if (!coordinator().equals("k8s_lease")) {
      return List.of();
    }
    String name = raw.getString("coordinate.k8s_lease.name"); // shipped configs name it
    List<String> orgs = orgs();
    if (orgs.isEmpty()) {
      return List.of(name);
    }
    List<String> leases = new ArrayList<>(orgs.stream().map(o -> name + "-" + o).toList());
    if (orgs.size() >= 2) {
      leases.add(name + ROSTER_SUFFIX);
    }
    return List.copyOf(leases);
  }
}
