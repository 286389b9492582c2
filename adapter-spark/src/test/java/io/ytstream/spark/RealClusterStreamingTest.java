package io.ytstream.spark;

import io.ytstream.core.model.YPath;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One streaming query per delivery mode against a real cluster: {@code mvn -B -Pyt-cluster -pl
 * adapter-spark -am verify -Dyt.proxy=<proxy> -Dyt.token=<token>} (the token may also come from
 * {@code YT_TOKEN} or {@code ~/.yt/token}). Tables and checkpoints go to a new {@code
 * <yt.root>/ytstream-spark-<uuid>} ({@code -Dyt.root}, default {@code //tmp}), removed after each
 * query. Every other {@code -Dyt.*} setting (such as {@code -Dyt.http.caCertificates=ca.pem}) is
 * passed to the connector. Without {@code -Dyt.proxy} the tests are skipped with one line saying
 * so.
 */
@Tag("yt-cluster")
@ExtendWith(RealClusterStreamingTest.ProxyConfigured.class)
class RealClusterStreamingTest {

  /** Skips everything, with one printed line, when no proxy is configured. */
  static final class ProxyConfigured implements ExecutionCondition {
    private static final AtomicBoolean SAID = new AtomicBoolean();

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      String proxy = System.getProperty("yt.proxy", "");
      if (!proxy.isBlank()) {
        return ConditionEvaluationResult.enabled("yt.proxy=" + proxy);
      }
      String line =
          "yt-cluster: streaming queries skipped, no cluster configured (run with -Pyt-cluster"
              + " -Dyt.proxy=<proxy> -Dyt.token=<token>)";
      if (SAID.compareAndSet(false, true)) {
        System.out.println(line);
      }
      return ConditionEvaluationResult.disabled(line);
    }
  }

  private static ClusterStreamingRuns runs() {
    Map<String, String> settings = new TreeMap<>();
    for (String key : System.getProperties().stringPropertyNames()) {
      String value = System.getProperty(key, "");
      if (key.startsWith("yt.")
          && !key.equals("yt.proxy")
          && !key.equals("yt.root")
          && !value.isBlank()) {
        settings.put(key, value);
      }
    }
    String root = System.getProperty("yt.root", "");
    return new ClusterStreamingRuns(
        SharedSpark.get(),
        System.getProperty("yt.proxy"),
        settings,
        YPath.of(root.isBlank() ? "//tmp" : root));
  }

  @Test
  void atLeastOnce() throws Exception {
    runs().run(ClusterStreamingRuns.Mode.AT_LEAST_ONCE);
  }

  @Test
  void transactional() throws Exception {
    runs().run(ClusterStreamingRuns.Mode.TRANSACTIONAL);
  }

  @Test
  void idempotent() throws Exception {
    runs().run(ClusterStreamingRuns.Mode.IDEMPOTENT);
  }
}
