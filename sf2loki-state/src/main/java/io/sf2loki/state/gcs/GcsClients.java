package io.sf2loki.state.gcs;

import com.google.api.gax.retrying.RetrySettings;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.cloud.NoCredentials;
import com.google.cloud.http.HttpTransportOptions;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import io.sf2loki.spi.FailureClass;
import io.sf2loki.spi.StoreAccessDeniedException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;

/** Builds the GCS JSON API client from {@code state.gcs}: client retries off (ours apply). */
final class GcsClients {

  private GcsClients() {}

  static Storage build(GcsStoreConfig config) {
    int timeoutMillis = (int) Math.min(Integer.MAX_VALUE, config.requestTimeout().toMillis());
    StorageOptions.Builder builder =
        StorageOptions.http()
            .setTransportOptions(
                HttpTransportOptions.newBuilder()
                    .setConnectTimeout(timeoutMillis)
                    .setReadTimeout(timeoutMillis)
                    .build())
            .setRetrySettings(RetrySettings.newBuilder().setMaxAttempts(1).build());
    config.projectId().ifPresent(builder::setProjectId);
    config.endpoint().ifPresent(uri -> builder.setHost(uri.toString()));
    if (config.serviceFile().isPresent()) {
      try (InputStream in = Files.newInputStream(config.serviceFile().get())) {
        builder.setCredentials(GoogleCredentials.fromStream(in));
      } catch (IOException e) {
        String file = config.serviceFile().get().toString();
        throw new StoreAccessDeniedException(
            "cannot read GCS service account file " + file + ": " + e,
            e,
            FailureClass.permanent(
                "store_access_denied",
                file,
                "make state.gcs.service_file name a readable service account key file"));
      }
    } else if (config.endpoint().isPresent()) {
      builder.setCredentials(NoCredentials.getInstance()); // an emulator takes no credentials
      if (config.projectId().isEmpty()) {
        builder.setProjectId("sf2loki");
      }
    }
    return builder.build().getService();
  }
}
