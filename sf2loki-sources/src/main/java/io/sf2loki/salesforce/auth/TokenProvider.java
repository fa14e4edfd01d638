package io.sf2loki.salesforce.auth;

/**
 * Hands out a valid access token for one org. Thread-safe: concurrent callers share one mint.
 *
 * <p>Every REST call asks for a token, and on a 401 hands the token it used back to {@link
 * #invalidate} and retries once with a fresh one.
 */
public interface TokenProvider {

  /**
   * The cached token, or a freshly minted one when none is cached or it is near its assumed expiry.
   *
   * @throws AuthException when minting failed (4xx at once, 5xx/transport after retries)
   * @throws InterruptedException when interrupted while waiting for a mint or a retry delay
   */
  AccessToken token() throws AuthException, InterruptedException;

  /**
   * Discards {@code used} if it is still the cached token (compare-and-clear): a token minted by
   * another caller meanwhile survives.
   */
  void invalidate(AccessToken used);
}
