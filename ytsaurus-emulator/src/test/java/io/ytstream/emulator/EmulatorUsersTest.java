package io.ytstream.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * How tokens map to users: {@code --token} acts as root, each {@code --user TOKEN=NAME} as NAME.
 */
class EmulatorUsersTest {

  @Test
  void theCommandLineMapsUserTokensAndTheTokenToRoot() {
    EmulatorOptions options =
        YtEmulatorMain.parseCommand(
                new String[] {"--token", "t0", "--user", "t1=alice", "--user", "a=b=bob"})
            .options();

    assertEquals(Map.of("t0", "root", "t1", "alice", "a=b", "bob"), options.tokenUsers());
  }

  @Test
  void usersAloneRequireTokensAndNoneRequireNothing() {
    assertEquals(
        Map.of("t1", "alice"), EmulatorOptions.defaults().withUser("t1", "alice").tokenUsers());
    assertTrue(EmulatorOptions.defaults().tokenUsers().isEmpty());
  }

  @Test
  void aMalformedUserNamesTheOptionAndHidesTheToken() {
    IllegalArgumentException error =
        assertThrows(
            IllegalArgumentException.class,
            () -> YtEmulatorMain.parseCommand(new String[] {"--user", "secret-token"}));

    assertTrue(error.getMessage().contains("--user") && error.getMessage().contains("TOKEN=NAME"));
    assertFalse(error.getMessage().contains("secret-token"), error.getMessage());
  }

  @Test
  void aUserTokenCannotBeTheRootToken() {
    assertThrows(
        IllegalArgumentException.class,
        () -> EmulatorOptions.defaults().withToken("t").withUser("t", "alice"));
    assertThrows(
        IllegalArgumentException.class,
        () -> EmulatorOptions.defaults().withUser("t", "alice").withToken("t"));
  }

  @Test
  void optionsNeverPrintTokens() {
    String text =
        EmulatorOptions.defaults().withToken("t0-secret").withUser("t1-secret", "alice").toString();

    assertFalse(text.contains("secret"), text);
    assertTrue(text.contains("alice"), text);
  }
}
