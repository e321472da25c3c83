/** The not-found messages of projects and bases: the projects module and the texts core's filters answer them alike. */
export const projectNotFound = (developerId: string) => `Project with developer ID ${developerId} not found`;
export const baseNotFound = (developerId: string) => `Base with developer ID ${developerId} not found`;
