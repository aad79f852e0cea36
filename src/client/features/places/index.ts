// Categories and floors. The list editor, which loads the form schemas, is in ./forms.
export { categoriesQuery, floorsQuery, type PlaceKind } from './api';
