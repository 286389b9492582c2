package io.ytstream.spark.connect;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sparkproject.connect.protobuf.Any;
import org.sparkproject.connect.protobuf.ByteString;

/**
 * The command's claim on Connect's extension commands, without a server: it takes only its own
 * type, so other plugins' commands pass on, and names a bad writer. The query it starts is tested
 * from the Connect client (python/tests/test_connect.py).
 */
class RealTimeWriterCommandTest {

  private final RealTimeWriterCommand command = new RealTimeWriterCommand();

  @Test
  void anotherPluginsCommandIsLeftToIt() {
    byte[] other =
        Any.newBuilder()
            .setTypeUrl("type.googleapis.com/example.Other")
            .setValue(ByteString.copyFromUtf8("x"))
            .build()
            .toByteArray();
    assertFalse(command.process(other, null));
    assertFalse(command.process(new byte[] {(byte) 0xff, 0x01}, null), "not an Any at all");
  }

  @Test
  void itsOwnTypeWithoutAQueryIsRefusedNamingTheType() {
    byte[] broken =
        Any.newBuilder()
            .setTypeUrl(RealTimeWriterCommand.TYPE_URL)
            .setValue(ByteString.copyFrom(new byte[] {(byte) 0xff, (byte) 0xff}))
            .build()
            .toByteArray();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> command.process(broken, null));
    assertTrue(e.getMessage().startsWith(RealTimeWriterCommand.TYPE_URL), e.getMessage());
  }

  @Test
  void anUnknownWriterIsNamed() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                RealTimeWriterCommand.writer(
                    Map.of(RealTimeWriterCommand.WRITER, "upsret", "ytstream.path", "//home/o")));
    assertTrue(e.getMessage().contains("'upsret' is not a writer"), e.getMessage());
    assertTrue(e.getMessage().contains("exactly_once, upsert, append or producer"), e.getMessage());
  }
}
