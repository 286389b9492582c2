package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** A YTsaurus token never shows in what ytstream prints or throws. */
class SecretsTest {

  private static final String TOKEN = "AQAD-secret-token-value";

  @Test
  void tokenIsRedactedFromSettingsAndClusterReferences() {
    YtSettings settings =
        YtSettings.of(Map.of(YtSettings.PROXY, "http://nowhere:1", YtSettings.TOKEN, TOKEN));
    ClusterRef ref = settings.cluster(YtOptions.of(Map.of()));
    assertFalse(settings.toString().contains(TOKEN), settings.toString());
    assertFalse(ref.toString().contains(TOKEN), ref.toString());
    assertTrue(ref.toString().contains("<redacted>"), ref.toString());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, ref::connect);
    for (Throwable t = e; t != null; t = t.getCause()) {
      assertFalse(String.valueOf(t.getMessage()).contains(TOKEN), t.getMessage());
    }
    assertTrue(e.getMessage().contains("io.ytstream:adapter-ytsaurus"), e.getMessage());
  }
}
