package io.ytstream.types.v3;

import java.util.Objects;

/**
 * {@code tagged<tag,item>}: the item type annotated with a non-empty tag such as {@code image/png}.
 * Values are those of the item; the types still compare as different.
 */
public record YtTagged(String tag, YtType item) implements YtType {

  public YtTagged {
    Objects.requireNonNull(tag, "tag");
    Objects.requireNonNull(item, "tagged item type");
    if (tag.isEmpty()) {
      throw new IllegalArgumentException("tag of a tagged type must not be empty");
    }
  }

  @Override
  public String describe() {
    return "tagged<\"" + tag + "\"," + item.describe() + ">";
  }

  @Override
  public boolean isNullable() {
    return item.isNullable();
  }
}
