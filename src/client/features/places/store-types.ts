// A category's store type as an admin reads it (docs/decisions/034): the schema.org type's name in words.
import { STORE_TYPES, type StoreType } from '../../../shared/mall-profile';

/** Words the type's name does not spell as people write them. */
const SPELLED: Partial<Record<StoreType, string>> = {
  Store: 'Store (any kind of shop)',
  MensClothingStore: "Men's clothing store",
};

/** "BookStore" → "Book store". */
export function storeTypeLabel(type: StoreType): string {
  const spelled = SPELLED[type];
  if (spelled) return spelled;
  const words = type.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The select's choices: "Store" first, then the rest by what they read. */
export const STORE_TYPE_CHOICES: ReadonlyArray<{ value: StoreType; label: string }> = [
  { value: 'Store', label: storeTypeLabel('Store') },
  ...STORE_TYPES.filter((type) => type !== 'Store')
    .map((value) => ({ value, label: storeTypeLabel(value) }))
    .sort((a, b) => a.label.localeCompare(b.label, 'en')),
];

/** The label of the select, on the add form and on each category's editor. */
export const STORE_TYPE_LABEL = 'Store type (for search engines)';
