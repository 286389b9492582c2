package io.ytstream.ytsaurus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** {@code yt.http.proxyBanMs} and {@code yt.http.proxyChoiceSeed}, with the Python defaults. */
class ProxyFailoverSettingsTest {

  @Test
  void defaultsAreThePythonClients() {
    ProxyFailover failover =
        YtsaurusClientConfig.fromSettings("localhost:1", Map.of("yt.token", "t")).failover();

    assertEquals(Duration.ofSeconds(120), failover.banTime());
    assertEquals(OptionalLong.empty(), failover.seed());
    assertEquals(5, ProxyFailover.TOP_PROXIES);
  }

  @Test
  void bothSettingsAreReadWithOrWithoutTheSparkPrefix() {
    YtsaurusClientConfig config =
        YtsaurusClientConfig.fromSettings(
            "localhost:1",
            Map.of(
                "yt.token", "t",
                "spark.hadoop.yt.http.proxyBanMs", "500",
                "yt.http.proxyChoiceSeed", "-9"));

    assertEquals(new ProxyFailover(Duration.ofMillis(500), OptionalLong.of(-9)), config.failover());
    assertTrue(config.toString().contains("proxyChoiceSeed=-9"), config.toString());
  }

  @Test
  void badValuesFailNamingTheSetting() {
    IllegalArgumentException ban =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                YtsaurusClientConfig.fromSettings(
                    "localhost:1", Map.of("yt.token", "t", "yt.http.proxyBanMs", "-1")));
    assertTrue(ban.getMessage().startsWith("setting yt.http.proxyBanMs"), ban.getMessage());
    IllegalArgumentException seed =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                YtsaurusClientConfig.fromSettings(
                    "localhost:1", Map.of("yt.token", "t", "yt.http.proxyChoiceSeed", "soon")));
    assertEquals(
        "setting yt.http.proxyChoiceSeed must be a whole number, got 'soon'", seed.getMessage());
  }
}
