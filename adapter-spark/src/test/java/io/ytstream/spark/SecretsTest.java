package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.spark.config.ClusterRef;
import io.ytstream.spark.config.YtOptions;
import io.ytstream.spark.config.YtSettings;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A YTsaurus token never shows in what ytstream prints or throws. */
class SecretsTest {

  private static final String TOKEN = "AQAD-secret-token-value";

  @Test
  void tokenIsRedactedFromSettingsAndClusterReferences() {
    YtSettings settings =
        YtSettings.of(Map.of(YtSettings.PROXY, "http://127.0.0.1:1", YtSettings.TOKEN, TOKEN));
    ClusterRef ref = settings.cluster(YtOptions.of(Map.of()));
    assertFalse(settings.toString().contains(TOKEN), settings.toString());
    assertFalse(ref.toString().contains(TOKEN), ref.toString());
    assertTrue(ref.toString().contains("<redacted>"), ref.toString());
    // The HTTP adapter is on the test class path: nothing listens there, so connecting fails.
    RuntimeException e = assertThrows(RuntimeException.class, ref::connect);
    for (Throwable t = e; t != null; t = t.getCause()) {
      assertFalse(String.valueOf(t.getMessage()).contains(TOKEN), t.getMessage());
    }
  }
}
