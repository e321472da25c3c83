/**
 * The not-found messages of projects, bases and variants: their modules, the texts core's filters
 * and writes, the exports and the v0/v1 API answer them alike.
 */
export const projectNotFound = (developerId: string) => `Project with developer ID ${developerId} not found`;
export const baseNotFound = (developerId: string) => `Base with developer ID ${developerId} not found`;
export const variantNotFoundMessage = (developerId: string) => `Variant with id ${developerId} not found`;
