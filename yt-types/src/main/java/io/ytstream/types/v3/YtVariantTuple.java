package io.ytstream.types.v3;

import java.util.List;

/** {@code variant} over a tuple: exactly one of the unnamed alternatives, labelled by index. */
public record YtVariantTuple(List<YtType> elements) implements YtType {

  public YtVariantTuple {
    elements = Members.checkedElements("variant", elements);
  }

  @Override
  public String describe() {
    return Members.describeElements("variant", elements);
  }

  @Override
  public boolean isNullable() {
    return false;
  }
}
