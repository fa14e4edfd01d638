package io.sf2loki.source.pubsub.decode;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;

/**
 * The {@code changedFields}, {@code nulledFields} and {@code diffFields} bitmaps of a change
 * event's {@code ChangeEventHeader}, decoded to field names. Element 0 ({@code "0x…"}) is a bitmap
 * over the top-level fields of the writer schema, bit i from the least significant end being field
 * position i; each further element {@code "{parentPos}-0x{bitmap}"} indexes the fields of the
 * compound field at {@code parentPos} (Address, Name), named {@code Parent.Child}.
 */
public final class ChangeBitmaps {

  /** The header field that holds the bitmaps. */
  public static final String HEADER = "ChangeEventHeader";

  static final List<String> FIELDS = List.of("changedFields", "nulledFields", "diffFields");

  private ChangeBitmaps() {}

  /** A bitmap that does not parse or names positions the schema lacks. */
  public static final class MalformedBitmapException extends Exception {
    private static final long serialVersionUID = 1L;

    MalformedBitmapException(String message) {
      super(message);
    }
  }

  /**
   * Replaces the bitmaps in {@code payload}'s header with field names, in place. A payload without
   * a {@code ChangeEventHeader} is left as is.
   *
   * @throws MalformedBitmapException when one bitmap is malformed; the payload is then unchanged
   */
  public static void expand(Schema schema, Map<String, Object> payload)
      throws MalformedBitmapException {
    if (!(payload.get(HEADER) instanceof Map<?, ?> raw)) {
      return;
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> header = (Map<String, Object>) raw;
    Map<String, List<String>> decoded = new java.util.LinkedHashMap<>();
    for (String field : FIELDS) {
      if (header.get(field) instanceof List<?> bitmaps) {
        decoded.put(field, names(schema, bitmaps));
      }
    }
    header.putAll(decoded);
  }

  /** The field names one bitmap array denotes, top-level ones first. */
  static List<String> names(Schema schema, List<?> bitmaps) throws MalformedBitmapException {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < bitmaps.size(); i++) {
      String element = String.valueOf(bitmaps.get(i));
      if (i == 0 && element.startsWith("0x")) {
        out.addAll(fieldsAt(schema, bits(element), ""));
        continue;
      }
      int dash = element.indexOf("-0x");
      if (dash <= 0) {
        throw new MalformedBitmapException("bitmap element '" + element + "' is not {pos}-0x{hex}");
      }
      int parent = position(element.substring(0, dash));
      if (parent >= schema.getFields().size()) {
        throw new MalformedBitmapException("no field at position " + parent);
      }
      Schema.Field compound = schema.getFields().get(parent);
      Schema nested =
          record(compound.schema())
              .orElseThrow(
                  () -> new MalformedBitmapException(compound.name() + " is not a compound field"));
      out.addAll(fieldsAt(nested, bits(element.substring(dash + 1)), compound.name() + "."));
    }
    return out;
  }

  private static List<String> fieldsAt(Schema schema, BigInteger bits, String prefix)
      throws MalformedBitmapException {
    if (bits.bitLength() > schema.getFields().size()) {
      throw new MalformedBitmapException(
          "bit "
              + (bits.bitLength() - 1)
              + " set, but "
              + schema.getName()
              + " has "
              + schema.getFields().size()
              + " fields");
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < bits.bitLength(); i++) {
      if (bits.testBit(i)) {
        out.add(prefix + schema.getFields().get(i).name());
      }
    }
    return out;
  }

  private static BigInteger bits(String hex) throws MalformedBitmapException {
    if (!hex.startsWith("0x") || hex.length() == 2) {
      throw new MalformedBitmapException("bitmap '" + hex + "' is not 0x{hex}");
    }
    try {
      return new BigInteger(hex.substring(2), 16); // odd-length hex too
    } catch (NumberFormatException e) {
      throw new MalformedBitmapException("bitmap '" + hex + "' is not hex");
    }
  }

  private static int position(String text) throws MalformedBitmapException {
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw new MalformedBitmapException("position '" + text + "' is not a number");
    }
  }

  /** The record inside {@code ["null", record]}, {@code ["string", record]} and the like. */
  private static Optional<Schema> record(Schema schema) {
    if (schema.getType() == Schema.Type.RECORD) {
      return Optional.of(schema);
    }
    if (schema.getType() == Schema.Type.UNION) {
      return schema.getTypes().stream().filter(t -> t.getType() == Schema.Type.RECORD).findFirst();
    }
    return Optional.empty();
  }
}
