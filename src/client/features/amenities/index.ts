// Floor amenities and the shoppers' floor guide. The admin's editor, which loads the form schemas, is in ./forms.

export { AmenityIcon, AmenityItem } from './amenity-icon';
export { amenitiesQuery, floorGuideOfQuery, floorGuideQuery } from './api';
