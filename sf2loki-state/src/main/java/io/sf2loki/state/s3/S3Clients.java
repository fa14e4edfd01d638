package io.sf2loki.state.s3;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/** Builds the S3 client from {@code state.s3}: apache5 transport, SDK retries off. */
final class S3Clients {

  private S3Clients() {}

  static S3Client build(S3StoreConfig config) {
    S3ClientBuilder builder =
        S3Client.builder()
            .httpClient(
                Apache5HttpClient.builder()
                    .connectionTimeout(config.requestTimeout())
                    .socketTimeout(config.requestTimeout())
                    .build())
            .credentialsProvider(credentials(config))
            .forcePathStyle(config.pathStyle())
            // our RetryPolicy retries, and must see every failed attempt (build-notes §5.1)
            .overrideConfiguration(
                c ->
                    c.retryStrategy(AwsRetryStrategy.doNotRetry())
                        .apiCallAttemptTimeout(config.requestTimeout()));
    config.region().map(Region::of).ifPresent(builder::region);
    if (config.region().isEmpty() && config.endpoint().isPresent()) {
      builder.region(Region.US_EAST_1); // S3-compatible services ignore it, the signer needs one
    }
    config
        .endpoint()
        .ifPresent(
            uri -> {
              builder.endpointOverride(uri);
              // S3-compatible services often reject the newer default checksum trailers
              builder.requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED);
              builder.responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
            });
    return builder.build();
  }

  private static AwsCredentialsProvider credentials(S3StoreConfig config) {
    if (config.accessKeyId().isEmpty() || config.secretAccessKey().isEmpty()) {
      return DefaultCredentialsProvider.builder().build();
    }
    String id = config.accessKeyId().get();
    String secret = config.secretAccessKey().get().reveal();
    return StaticCredentialsProvider.create(
        config
            .sessionToken()
            .<software.amazon.awssdk.auth.credentials.AwsCredentials>map(
                t -> AwsSessionCredentials.create(id, secret, t.reveal()))
            .orElseGet(() -> AwsBasicCredentials.create(id, secret)));
  }
}
