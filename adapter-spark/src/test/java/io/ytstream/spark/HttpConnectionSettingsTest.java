package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.emulator.EmulatorOptions;
import io.ytstream.emulator.SelfSignedCertificate;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.emulator.YtEmulatorExtension;
import io.ytstream.spark.config.ClusterRef;
import io.ytstream.spark.config.YtOptions;
import io.ytstream.spark.config.YtSettings;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * What Spark passes on to the HTTP adapter: every {@code spark.hadoop.yt.*} setting but the address
 * (token, timeouts, retries, ping period, trust), on the driver, on executors and in the {@code
 * yt://} file system; and the per-query option {@code proxy}, which names the cluster instead of
 * {@code spark.hadoop.yt.proxy}.
 */
class HttpConnectionSettingsTest {

  private static final String TOKEN = "yt-settings-token-51c2";
  private static final String CA = "spark.hadoop.yt.http.caCertificates";
  private static final String TIMEOUT = "spark.hadoop.yt.http.requestTimeoutMs";

  @RegisterExtension
  final YtEmulatorExtension https =
      YtEmulatorExtension.https(EmulatorOptions.defaults().withToken(TOKEN));

  private final SparkSession spark = SharedSpark.get();

  @AfterEach
  void resetSession() {
    for (String key : List.of(YtSettings.PROXY, YtSettings.TOKEN, CA, TIMEOUT)) {
      spark.conf().unset(key);
    }
  }

  @Test
  void everyYtSettingButTheAddressIsPassedOnRedactedWhenShown() {
    YtSettings settings =
        YtSettings.of(
            Map.of(
                YtSettings.PROXY,
                "https://proxy:443",
                YtSettings.TOKEN,
                TOKEN,
                TIMEOUT,
                "12000",
                "spark.hadoop.yt.http.trustStore",
                "/etc/yt/trust.p12",
                "spark.hadoop.yt.http.trustStorePassword",
                "store-secret",
                "spark.hadoop.yt.http.format",
                "yson",
                "yt.http.maxAttempts",
                "2",
                "spark.hadoop.yt.http.maxAttempts",
                "3",
                "spark.yt.streaming.transactional",
                "true"));

    ClusterRef ref = settings.cluster(YtOptions.of(Map.of()));

    assertEquals(
        Map.of(
            "yt.token", TOKEN,
            "yt.http.requestTimeoutMs", "12000",
            "yt.http.trustStore", "/etc/yt/trust.p12",
            "yt.http.trustStorePassword", "store-secret",
            "yt.http.format", "yson",
            "yt.http.maxAttempts", "3"),
        ref.settings(),
        "spark.hadoop.* wins over the bare key; the address and spark.yt.* stay behind");
    assertFalse(ref.toString().contains(TOKEN), ref.toString());
    assertFalse(ref.toString().contains("store-secret"), ref.toString());
    assertTrue(ref.toString().contains("yt.http.requestTimeoutMs=12000"), ref.toString());
  }

  @Test
  void aStreamOverHttpsTrustsTheCaGivenInTheSessionOnDriverExecutorsAndCheckpoints(
      YtEmulator emulator, SelfSignedCertificate certificate) throws Exception {
    EmulatorCluster c = new EmulatorCluster(emulator);
    c.queue("//q", 2).consumer("//c", "//q").orderedTable("//out", 1);
    c.produce("//q", 0, 0, 3);
    c.produce("//q", 1, 100, 102);
    spark.conf().set(YtSettings.PROXY, emulator.url());
    spark.conf().set(YtSettings.TOKEN, TOKEN);
    spark.conf().set(CA, certificate.certificatePem().toString());
    spark.conf().set(TIMEOUT, "20000");

    run(spark, Map.of(), "yt:///ckpt/https");

    assertTrue(emulator.url().startsWith("https://"), emulator.url());
    assertEquals(List.of(0L, 1L, 2L, 100L, 101L), c.ids("//out"));
    assertTrue(c.newest("//ckpt/https/commits") >= 0, "checkpoints went through yt:// over https");
    assertEquals(5, c.consumerTotal("//c", "//q"));
  }

  @Test
  void theOptionProxyNamesTheClusterInsteadOfTheSessionSetting(
      YtEmulator emulator, SelfSignedCertificate certificate, @TempDir Path checkpoint)
      throws Exception {
    try (YtEmulator sessionCluster =
        YtEmulator.start(EmulatorOptions.defaults().withToken(TOKEN))) {
      EmulatorCluster chosen = new EmulatorCluster(emulator);
      EmulatorCluster other = new EmulatorCluster(sessionCluster);
      for (EmulatorCluster c : List.of(chosen, other)) {
        c.queue("//q", 1).consumer("//c", "//q").orderedTable("//out", 1);
      }
      chosen.produce("//q", 0, 0, 4);
      other.produce("//q", 0, 500, 502);
      spark.conf().set(YtSettings.PROXY, sessionCluster.url());
      spark.conf().set(YtSettings.TOKEN, TOKEN);
      spark.conf().set(CA, certificate.certificatePem().toString());

      run(spark, Map.of("proxy", emulator.url()), checkpoint.toUri().toString());

      assertEquals(
          LongStream.range(0, 4).boxed().toList(), chosen.ids("//out"), "read and written there");
      assertEquals(4, chosen.consumerTotal("//c", "//q"));
      assertEquals(List.of(), other.ids("//out"), "the session's cluster is not touched");
      assertEquals(0, other.consumerTotal("//c", "//q"));
    }
  }

  private static void run(SparkSession spark, Map<String, String> options, String checkpoint)
      throws Exception {
    StreamingQuery q =
        spark
            .readStream()
            .format("yt")
            .options(options)
            .option("consumer_path", "//c")
            .load("//q")
            .writeStream()
            .format("yt")
            .options(options)
            .option("path", "//out")
            .option("checkpointLocation", checkpoint)
            .trigger(Trigger.AvailableNow())
            .start();
    try {
      q.awaitTermination();
    } finally {
      q.stop();
    }
    assertTrue(q.exception().isEmpty(), () -> "the query failed: " + q.exception().get());
  }
}
