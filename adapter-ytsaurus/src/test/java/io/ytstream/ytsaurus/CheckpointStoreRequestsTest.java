package io.ytstream.ytsaurus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.YPath;
import io.ytstream.emulator.EmulatorOptions;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.ports.CheckpointStore;
import io.ytstream.ports.NodeStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The checkpoint store's requests per operation, which set the cost of a micro-batch with {@code
 * yt:///} checkpoints on a remote cluster: a node's status is one {@code get <node>/@} with an
 * attribute filter (it was {@code exists} plus three attribute reads), a rename one {@code move}.
 */
class CheckpointStoreRequestsTest {

  private static final String TOKEN = "checkpoint-requests-token";
  private static final Pattern MUTATION_ID = Pattern.compile("\"mutation_id\":\"([^\"]*)\"");

  @Test
  void statusIsOneRequestForAFileADirectoryAndAMissingNode() {
    try (YtEmulator emulator = YtEmulator.start(EmulatorOptions.defaults().withToken(TOKEN))) {
      List<String> commands = new ArrayList<>();
      YtsaurusClientConfig config =
          YtsaurusClientConfig.of(emulator.url(), Optional.of(OAuthToken.of(TOKEN)))
              .withRequestLogger(
                  r -> {
                    synchronized (commands) {
                      commands.add(r.command() + " " + r.parameters());
                    }
                  });
      try (YtsaurusCluster cluster = YtsaurusCluster.connect(config)) {
        CheckpointStore store = cluster.checkpoints();
        YPath dir = YPath.of("//ckpt/offsets");
        store.createDirectories(dir);
        store.writeFile(dir.child("0"), new byte[] {1, 2, 3}, false);

        commands.clear();
        Optional<NodeStatus> file = store.status(dir.child("0"));
        Optional<NodeStatus> directory = store.status(dir);
        Optional<NodeStatus> missing = store.status(dir.child("1"));

        assertTrue(file.isPresent() && !file.get().directory());
        assertEquals(3, file.get().length());
        assertTrue(file.get().modificationTimeMillis() > 0, "modification_time is read");
        assertTrue(directory.isPresent() && directory.get().directory());
        assertFalse(missing.isPresent());
        assertEquals(3, commands.size(), "one request per status: " + commands);
        commands.forEach(
            c -> {
              assertTrue(c.startsWith("get "), c);
              assertTrue(c.contains("/@\""), "the node's attributes: " + c);
              assertTrue(c.contains("\"attributes\":[\"type\""), "filtered: " + c);
            });

        commands.clear();
        store.writeFile(dir.child(".1.tmp"), new byte[] {4}, true);
        store.rename(dir.child(".1.tmp"), dir.child("1"));
        YtException refused =
            assertThrows(YtException.class, () -> store.rename(dir.child("1"), dir.child("0")));
        assertTrue(refused.hasCode(YtErrorCode.ALREADY_EXISTS), refused.getMessage());
        List<String> names = new ArrayList<>();
        commands.forEach(c -> names.add(c.substring(0, c.indexOf(' '))));
        assertEquals(List.of("create", "write_file", "move", "move"), names);
        // Mutations carry a GUID the server parses (guid.cpp), retry=false on the first attempt.
        for (String c : commands) {
          if (c.startsWith("create ") || c.startsWith("move ")) {
            Matcher id = MUTATION_ID.matcher(c);
            assertTrue(id.find(), c);
            assertTrue(MutationId.isGuid(id.group(1)), c);
            assertTrue(c.contains("\"retry\":false"), c);
          }
        }
      }
    }
  }
}
