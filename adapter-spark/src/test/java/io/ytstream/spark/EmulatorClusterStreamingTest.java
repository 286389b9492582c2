package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.YPath;
import io.ytstream.emulator.EmulatorOptions;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.emulator.YtEmulatorExtension;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link RealClusterStreamingTest}'s queries, set up and checked only over HTTP as on a real
 * cluster, against the emulator with a required token: the real-cluster run is exercised in every
 * build, and its tables are gone afterwards.
 */
class EmulatorClusterStreamingTest {

  private static final String TOKEN = "cluster-streaming-token";

  @RegisterExtension
  final YtEmulatorExtension yt =
      new YtEmulatorExtension(EmulatorOptions.defaults().withToken(TOKEN));

  private void run(YtEmulator emulator, ClusterStreamingRuns.Mode mode) throws Exception {
    YPath parent = YPath.of("//tmp");
    emulator.cluster().checkpoints().createDirectories(parent);
    new ClusterStreamingRuns(SharedSpark.get(), emulator.url(), Map.of("yt.token", TOKEN), parent)
        .run(mode);
    assertTrue(
        emulator.cluster().checkpoints().list(parent).isEmpty(),
        "the run removed its folder: " + emulator.cluster().checkpoints().list(parent));
  }

  @Test
  void atLeastOnce(YtEmulator emulator) throws Exception {
    run(emulator, ClusterStreamingRuns.Mode.AT_LEAST_ONCE);
  }

  @Test
  void transactional(YtEmulator emulator) throws Exception {
    run(emulator, ClusterStreamingRuns.Mode.TRANSACTIONAL);
  }

  @Test
  void idempotent(YtEmulator emulator) throws Exception {
    run(emulator, ClusterStreamingRuns.Mode.IDEMPOTENT);
  }
}
