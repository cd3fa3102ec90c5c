import { describe, expect, it } from 'vitest';
import { EndpointSlots, MAX_IN_FLIGHT_PER_ENDPOINT } from '../../../../shared/domain/webhooks/endpoint-slots';

describe('EndpointSlots', () => {
  it(`lets ${MAX_IN_FLIGHT_PER_ENDPOINT} deliveries to one endpoint be in flight and refuses the next`, () => {
    // Arrange
    const slots = new EndpointSlots();

    // Act
    const taken = Array.from({ length: MAX_IN_FLIGHT_PER_ENDPOINT + 1 }, () => slots.tryTake('wh-slow'));

    // Assert
    expect(taken).toEqual([...Array<boolean>(MAX_IN_FLIGHT_PER_ENDPOINT).fill(true), false]);
  });

  it('keeps serving other endpoints while one is full', () => {
    // Arrange
    const slots = new EndpointSlots(1);
    slots.tryTake('wh-slow');

    // Act
    const other = slots.tryTake('wh-fast');

    // Assert
    expect(other).toBe(true);
  });

  it('gives a released slot to the next delivery', () => {
    // Arrange
    const slots = new EndpointSlots(1);
    slots.tryTake('wh-slow');

    // Act
    slots.release('wh-slow');

    // Assert
    expect(slots.tryTake('wh-slow')).toBe(true);
  });

  it('does not let a release without a take make room beyond the limit', () => {
    // Arrange
    const slots = new EndpointSlots(1);
    slots.release('wh-slow');

    // Act
    const taken = [slots.tryTake('wh-slow'), slots.tryTake('wh-slow')];

    // Assert
    expect(taken).toEqual([true, false]);
  });
});
