package io.ytstream.ytsaurus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ytstream.types.yson.YsonAttributed;
import io.ytstream.types.yson.YsonUint64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UserMetaJsonTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void dollarKeysGetOneMoreDollarAndComeBackWithout() throws Exception {
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put("$batch", 7L);
    meta.put("offsets", List.of(1L, 2L));

    String json = UserMetaJson.toJson(meta).toString();

    assertEquals("{\"$$batch\":7,\"offsets\":[1,2]}", json);
    assertEquals(meta, UserMetaJson.fromJson(JSON.readTree(json)));
  }

  @Test
  void attributesAndLargeUnsignedNumbersSurviveTheRoundTrip() throws Exception {
    Object meta = new YsonAttributed(Map.of("a", "b"), new YsonUint64(-1L));

    String json = UserMetaJson.toJson(meta).toString();

    assertEquals("{\"$attributes\":{\"a\":\"b\"},\"$value\":18446744073709551615}", json);
    assertEquals(meta, UserMetaJson.fromJson(JSON.readTree(json)));
  }

  @Test
  void aValueOutsideTheYsonModelIsRefusedByName() {
    IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> UserMetaJson.toJson(new Object()));
    assertEquals(true, error.getMessage().contains("java.lang.Object"), error.getMessage());
  }
}
