package io.sf2loki.daemon.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.testkit.tools.ExternalTool;
import io.sf2loki.testkit.tools.ToolRun;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * One overlay of {@code deploy/kubernetes/overlays/} as {@code kubectl kustomize} renders it: the
 * objects it would apply, as plain YAML trees. Rendered once per overlay and JVM.
 *
 * @param overlay the overlay's directory name
 * @param objects the rendered objects, in kustomize's order
 */
record Rendered(String overlay, List<Map<String, Object>> objects) {

  static final Path OVERLAYS = Path.of("..", "deploy", "kubernetes", "overlays");

  private static final Map<String, Rendered> CACHE = new ConcurrentHashMap<>();

  /**
   * {@code kubectl kustomize} of {@code overlay}; skips the test without kubectl (see
   * ExternalTool).
   */
  static Rendered of(String overlay) {
    return CACHE.computeIfAbsent(
        overlay, o -> render(overlay, OVERLAYS.getParent(), Path.of("overlays", o)));
  }

  /**
   * {@code kubectl kustomize} of a kustomization written into {@code dir} that takes {@code
   * overlay} with {@code components} (directories of deploy/kubernetes/components/) added, as a
   * user's own overlay would.
   */
  static Rendered composed(Path dir, String overlay, List<String> components) throws IOException {
    Path root = OVERLAYS.getParent().toAbsolutePath().normalize();
    Path here = dir.toAbsolutePath().normalize();
    StringBuilder k =
        new StringBuilder(
            "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n");
    k.append("  - ")
        .append(here.relativize(OVERLAYS.toAbsolutePath().normalize().resolve(overlay)));
    k.append("\ncomponents:\n");
    for (String c : components) {
      k.append("  - ").append(here.relativize(root.resolve("components").resolve(c))).append('\n');
    }
    Files.writeString(dir.resolve("kustomization.yaml"), k);
    return render(overlay + " + " + String.join(" + ", components), dir, Path.of("."));
  }

  private static Rendered render(String name, Path workDir, Path target) {
    Path kubectl =
        ExternalTool.require(
            "kubectl",
            "SF2LOKI_KUBECTL",
            "apt-get install kubectl (the Kubernetes or Google Cloud apt repository), or any"
                + " kubectl 1.27+ binary on PATH");
    try {
      ToolRun run =
          ToolRun.run(
              workDir,
              Duration.ofSeconds(60),
              "",
              List.of(kubectl.toString(), "kustomize", target.toString()));
      assertThat(run.succeeded()).as(run.describe()).isTrue();
      List<Map<String, Object>> objects = new ArrayList<>();
      for (Object doc : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(run.stdout())) {
        if (doc != null) {
          objects.add(map(doc));
        }
      }
      return new Rendered(name, List.copyOf(objects));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while kubectl kustomize ran", e);
    }
  }

  /** Every object of {@code kind}. */
  List<Map<String, Object>> all(String kind) {
    return objects.stream().filter(o -> kind.equals(o.get("kind"))).toList();
  }

  /** The one object of {@code kind}; fails the test when there is none or several. */
  Map<String, Object> one(String kind) {
    List<Map<String, Object>> found = all(kind);
    assertThat(found).as("%s objects of overlay %s", kind, overlay).hasSize(1);
    return found.get(0);
  }

  /** The Deployment's pod spec. */
  Map<String, Object> podSpec() {
    return map(at(one("Deployment"), "spec", "template", "spec"));
  }

  /** The Deployment's one container. */
  Map<String, Object> container() {
    List<Map<String, Object>> containers = maps(podSpec().get("containers"));
    assertThat(containers).as("containers of overlay %s", overlay).hasSize(1);
    return containers.get(0);
  }

  /**
   * The container's environment as the kubelet sets it: literal values, and keys of the rendered
   * ConfigMaps it references (downward-API variables are left to the caller).
   */
  Map<String, String> containerEnvironment() {
    Map<String, String> env = new TreeMap<>();
    for (Map<String, Object> v :
        maps(Objects.requireNonNullElse(container().get("env"), List.of()))) {
      String name = String.valueOf(v.get("name"));
      Object ref = at(v, "valueFrom", "configMapKeyRef");
      if (v.containsKey("value")) {
        env.put(name, String.valueOf(v.get("value")));
      } else if (ref != null) {
        Map<String, Object> configMap =
            all("ConfigMap").stream()
                .filter(c -> at(c, "metadata", "name").equals(at(ref, "name")))
                .findFirst()
                .orElseThrow(() -> new AssertionError(name + " references a missing ConfigMap"));
        env.put(name, String.valueOf(at(configMap, "data", String.valueOf(at(ref, "key")))));
      }
    }
    return env;
  }

  /** The value at {@code path} under {@code tree}, or null when a step is missing. */
  static Object at(Object tree, String... path) {
    Object here = tree;
    for (String step : path) {
      if (!(here instanceof Map<?, ?> m)) {
        return null;
      }
      here = m.get(step);
    }
    return here;
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Object value) {
    assertThat(value).isInstanceOf(Map.class);
    return (Map<String, Object>) value;
  }

  static List<Map<String, Object>> maps(Object value) {
    assertThat(value).isInstanceOf(List.class);
    return ((List<?>) value).stream().map(Rendered::map).toList();
  }

  static List<String> strings(Object value) {
    if (value == null) {
      return List.of();
    }
    assertThat(value).isInstanceOf(List.class);
    return ((List<?>) value).stream().map(o -> Objects.toString(o)).toList();
  }
}
