package io.sf2loki.state.gcs;

import com.google.api.gax.retrying.RetrySettings;
import com.google.cloud.NoCredentials;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import io.micrometer.core.instrument.MeterRegistry;
import io.sf2loki.spi.StoreEnvironment;
import io.sf2loki.state.internal.RetryPolicy;
import io.sf2loki.testkit.gcs.FakeGcsServer;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/** The testkit's fake GCS plus a real google-cloud-storage client with its retries off. */
final class GcsFixture {

  static final String BUCKET = "sf2loki-test";

  final FakeGcsServer server;
  final Storage storage;

  GcsFixture() throws Exception {
    server = FakeGcsServer.start();
    storage =
        StorageOptions.http()
            .setHost(server.endpoint())
            .setProjectId("p")
            .setCredentials(NoCredentials.getInstance())
            .setRetrySettings(RetrySettings.newBuilder().setMaxAttempts(1).build())
            .build()
            .getService();
  }

  GcsCheckpointStore store(String object, MeterRegistry metrics, List<Duration> sleeps) {
    RetryPolicy policy =
        new RetryPolicy(4, Duration.ofMillis(100), Duration.ofSeconds(2), sleeps::add, () -> 0.5);
    return new GcsCheckpointStore(
        storage, BUCKET, object, policy, new StoreEnvironment(false, Clock.systemUTC(), metrics));
  }

  void stop() throws Exception {
    storage.close();
    server.close();
  }
}
